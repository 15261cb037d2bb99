/** Interns strings as dense indices in first-use order (deterministic tables). */
export class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  id(value: string): number {
    let i = this.ids.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.ids.set(value, i);
    }
    return i;
  }
}

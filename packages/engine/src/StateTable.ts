/** Interning tables for states and block-entity digests, in first-use order (deterministic). */
export class StateTable {
  readonly states: string[] = [];
  readonly digests: string[] = [];
  private readonly stateIds = new Map<string, number>();
  private readonly digestIds = new Map<string, number>();

  id(state: string): number {
    let i = this.stateIds.get(state);
    if (i === undefined) {
      i = this.states.length;
      this.states.push(state);
      this.stateIds.set(state, i);
    }
    return i;
  }

  digestId(digest: string): number {
    let i = this.digestIds.get(digest);
    if (i === undefined) {
      i = this.digests.length;
      this.digests.push(digest);
      this.digestIds.set(digest, i);
    }
    return i;
  }
}

/** A player's `/ai` message as the server reports it: identity and position never come from the text. */
export interface ChatMessage {
  readonly playerId: string;
  readonly playerName: string;
  /** The text after `/ai`. */
  readonly text: string;
  readonly position?: { readonly x: number; readonly y: number; readonly z: number };
  readonly look?: { readonly yaw: number; readonly pitch: number };
}

/** Where `/ai` messages come from and replies go: the game through the world port, or the console. */
export interface ChatSource {
  /** Waits briefly (≤ ~250 ms) and returns the messages that arrived; [] when none. */
  poll(): Promise<readonly ChatMessage[]>;
  /** Sends one message to one player; false when the player is offline. */
  reply(playerId: string, text: string): Promise<boolean>;
  /** True once no more messages will come (the console's input closed). */
  readonly ended: boolean;
  close(): Promise<void>;
}

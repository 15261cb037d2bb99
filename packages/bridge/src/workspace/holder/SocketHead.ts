import type { Socket } from "node:net";

/**
 * Reads the first `lines` newline-ended lines a caller sends on a fresh connection (a greeting
 * with its token, a request), at most `maxBytes` within `timeoutMs`: a caller that sends more, or
 * takes longer, is cut off before anything is parsed. `onHead` gets the lines; what came after
 * them is pushed back onto the socket, which is left paused for the reader that follows.
 */
export function readHead(socket: Socket, lines: number, maxBytes: number, timeoutMs: number, onHead: (head: readonly string[]) => void): void {
  let head = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    let end = -1;
    for (let k = 0; k < lines; k++) {
      end = head.indexOf(0x0a, end + 1);
      if (end < 0) break;
    }
    if (end < 0) {
      if (head.length > maxBytes) socket.destroy();
      return;
    }
    socket.off("data", onData);
    socket.pause();
    clearTimeout(timer);
    const rest = head.subarray(end + 1);
    if (rest.length > 0) socket.unshift(rest);
    onHead(head.subarray(0, end).toString("utf8").split("\n"));
  };
  socket.on("data", onData);
}

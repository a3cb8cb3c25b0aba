/**
 * The socket.io room of a user: every socket that provided a valid token of the user's joins it
 * (server/http/socket-session.ts), and a push to the user is `io.to(userRoom(id))`, which the
 * Redis adapter carries to whichever node holds the sockets.
 */
export const userRoom = (userId: number) => `user:${userId}`;

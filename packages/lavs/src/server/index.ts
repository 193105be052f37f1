export type { LavsWebSocket, LavsWebSocketOptions } from './attach-lavs-web-socket.js';
export { attachLavsWebSocket } from './attach-lavs-web-socket.js';
export type { LavsServerOptions } from './create-lavs-server.js';
export { createLavsServer, LAVS_SERVER_DEFAULTS } from './create-lavs-server.js';
export type { ServeLavsOptions } from './serve-lavs.js';
export { serveLavs } from './serve-lavs.js';

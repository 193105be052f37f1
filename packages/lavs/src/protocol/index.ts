export type {
  DispatchContext,
  JsonRpcId,
  JsonRpcResponse,
  LavsDataNotification,
  SubscriptionHost,
} from './json-rpc.js';
export { dispatchJsonRpc } from './json-rpc.js';

import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A mistake in the request itself (an unknown tool, a resource that is not offered), sent
 * as a JSON-RPC error. Unlike the SDK's McpError it does not prefix its message, which the
 * client's McpError would prefix a second time.
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

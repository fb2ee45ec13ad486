import {
  ErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalRecords } from '../store/records.js';
import { APPROVAL_URI_TEMPLATE, approvalIdOf, approvalStatus, approvalUri } from './approval-status.js';
import { ProtocolError } from './protocol-error.js';

/** At most this many waiting approvals are listed; any other is still readable by its URI. */
const LISTED = 50;

/**
 * Held calls as resources, `lift://approvals/ID`: the same state `approval_status` returns,
 * for clients that read resources rather than call tools. The waiting ones are listed.
 */
export class ApprovalResources {
  readonly #approvals: Pick<ApprovalRecords, 'get' | 'list'>;

  constructor(approvals: Pick<ApprovalRecords, 'get' | 'list'>) {
    this.#approvals = approvals;
  }

  static readonly template: ResourceTemplate = {
    uriTemplate: APPROVAL_URI_TEMPLATE,
    name: 'approval',
    title: 'A held call',
    description:
      'The state of a call held for a person: pending, approved, executed (with its result) or denied.',
    mimeType: 'application/json',
  };

  async list(): Promise<Resource[]> {
    return (await this.#approvals.list(['pending'])).slice(-LISTED).map((approval) => ({
      uri: approvalUri(approval.id),
      name: `approval ${approval.id}: ${approval.tool} waits for ${approval.gate}`,
      mimeType: 'application/json',
    }));
  }

  /** The approval's state, or undefined when the URI is not an approval's. */
  async read(uri: string): Promise<ReadResourceResult | undefined> {
    const id = approvalIdOf(uri);
    if (!id) return undefined;
    const approval = await this.#approvals.get(id);
    if (!approval) {
      throw new ProtocolError(ErrorCode.InvalidParams, `No held call has approval id '${id}'.`);
    }
    return {
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(approvalStatus(approval)) }],
    };
  }
}

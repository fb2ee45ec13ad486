/** A gateway's answer that a reload may heal: bad gateway, unavailable, gateway timeout. */
export function isTransientStatus(status: number | undefined): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** The application failed to answer: HTTP 500 or worse, other than a gateway's transient answer. */
export function isAppErrorStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 500 && !isTransientStatus(status);
}

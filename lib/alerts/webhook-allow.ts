// LOOPSCOPE_WEBHOOK_ALLOW: the host names webhooks may post to (`*.example.com` takes every
// name under example.com, not example.com itself). Unset: any host.

/** The list from the variable's text: comma-separated, spaces and case ignored; null when empty. */
export function parseWebhookAllow(text: string | undefined): string[] | null {
  const hosts = (text ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.length > 0);
  return hosts.length > 0 ? hosts : null;
}

export function hostAllowed(hostname: string, allow: readonly string[] | null): boolean {
  if (allow === null) return true;
  // URL gives IPv6 literals in brackets and names in lower case.
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allow.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry,
  );
}

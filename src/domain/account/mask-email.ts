// An e-mail address shown to someone who may not own it (an invitation's addressee, the new
// address named in a notice to the old one): the first character of the local part, then "***",
// then the domain, so its owner recognises it and others learn little (issue 18, items 12 and 13).

/** `jane.doe@example.com` → `j***@example.com`; something that is not an address → `***`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return "***";
  const first = Array.from(email.slice(0, at))[0] ?? "";
  return `${first}***@${email.slice(at + 1)}`;
}

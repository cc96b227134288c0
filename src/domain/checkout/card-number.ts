// Card numbers and expiry dates as a person types them (issue 22, item 7): the number in groups
// with its brand, the expiry as "MM / YY", and the checks the browser makes before sending (a
// mistyped number is caught by its check digit and said to be wrong, not "declined"). The
// sandbox provider on the server uses the same check digit and brands.

/** The Luhn check digit holds (any card number a bank issues passes it). */
export function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return number.length > 0 && sum % 10 === 0;
}

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "unknown";

export function brandOf(digits: string): CardBrand {
  if (digits.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^6(011|5)/.test(digits)) return "discover";
  return "unknown";
}

export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "Amex",
  discover: "Discover",
  unknown: "",
};

/** The digits of what was typed (spaces, dashes and anything else dropped), at most 19. */
export function cardDigits(typed: string): string {
  return typed.replace(/\D/g, "").slice(0, 19);
}

/** The number in the groups printed on the card: 4-6-5 for American Express, else fours. */
export function formatCardNumber(typed: string): string {
  const digits = cardDigits(typed);
  if (brandOf(digits) === "amex") {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)]
      .filter(Boolean)
      .join(" ");
  }
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1228" or "12/28" typed becomes "12 / 28"; a first digit above 1 is a month: "4" is "04 / ". */
export function formatExpiry(typed: string, deleting = false): string {
  let digits = typed.replace(/\D/g, "");
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** The month and four-digit year of "MM / YY", or null when it is not a date of that form. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(m[2]) };
}

/** What is wrong with a card as typed, field by field (nothing when it may be sent). */
export function cardProblems(
  card: { number: string; expiry: string; cvc: string },
  now: Date,
): Partial<Record<"cardNumber" | "expiry" | "cvc", string>> {
  const out: Partial<Record<"cardNumber" | "expiry" | "cvc", string>> = {};
  const digits = cardDigits(card.number);
  if (digits === "") out.cardNumber = "Enter the card number.";
  else if (digits.length < 12 || !luhnValid(digits)) {
    out.cardNumber = "This card number is not valid: check the digits.";
  }
  const expiry = parseExpiry(card.expiry);
  if (card.expiry.trim() === "") out.expiry = "Enter the expiry date, as on the card (MM / YY).";
  else if (!expiry) out.expiry = "Enter the expiry date as MM / YY, such as 12 / 28.";
  else if (
    expiry.year < now.getFullYear() ||
    (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)
  ) {
    out.expiry = "This card has expired: check the date, or use another card.";
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    out.cvc =
      "Enter the 3 or 4 digit security code (on the back; on the front for American Express).";
  }
  return out;
}

// A new account's fields for the database tests: the identity fields newUser asks for.
import { type NewUser, newUser } from "../db/users.ts";

/** `name` is the username and the address's local part (example.com). */
export function testUser(
  name: string,
  createdAt: number,
  overrides: Partial<Parameters<typeof newUser>[0]> = {},
): NewUser {
  return newUser({
    email: `${name}@example.com`,
    username: name,
    firstName: "Pat",
    lastName: "Tester",
    passwordHash: "scrypt$hash",
    createdAt,
    ...overrides,
  });
}

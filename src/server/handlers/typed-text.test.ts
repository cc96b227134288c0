// Names and other text people type (issue 7, item 10): control characters, line breaks and bidi
// marks are refused with 400 naming the field, on every call that stores such text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { lastEventPayload } from "../testing/tables.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const LINE_BREAKS: Record<string, string> = {
  LF: "\n",
  CR: "\r",
  "CR LF": "\r\n",
  "line separator": "\u2028",
  "paragraph separator": "\u2029",
};
const OTHERS: Record<string, string> = {
  NUL: "\u0000",
  "C0 BEL": "\u0007",
  tab: "\t",
  ESC: "\u001b",
  DEL: "\u007f",
  "C1 NEL": "\u0085",
  "C1 CSI": "\u009b",
  LRM: "\u200e",
  RLM: "\u200f",
  "Arabic letter mark": "\u061c",
  LRE: "\u202a",
  RLE: "\u202b",
  PDF: "\u202c",
  LRO: "\u202d",
  RLO: "\u202e",
  LRI: "\u2066",
  RLI: "\u2067",
  FSI: "\u2068",
  PDI: "\u2069",
};
const ALL = { ...LINE_BREAKS, ...OTHERS };

let accounts = 0;
async function newAccount(): Promise<{ client: TestClient; email: string }> {
  accounts += 1;
  const email = `typed${accounts}@example.com`;
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Sam", lastName: "Sample" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  // Verified, as a trial needs (issue 18 item 6).
  await server.running.deps.db.transaction((tx) =>
    Users.update(tx, answer.body.userId, { emailVerified: true }),
  );
  return { client, email };
}

type Send = (
  client: TestClient,
  email: string,
  text: string,
) => Promise<{ status: number; body: unknown }>;

/** Each call and field that stores typed text, with a way to send `text` in that field. */
const FIELDS: { call: string; field: string; multiline?: boolean; send: Send }[] = [
  ...(["firstName", "lastName"] as const).map((field) => ({
    call: "sign-up",
    field,
    send: ((client, _email, text) =>
      client.call(api.signUp, {
        body: {
          email: `other-${newKey()}@example.com`,
          password: "secret-1",
          firstName: "Sam",
          lastName: "Sample",
          [field]: `Sam${text}Sample`,
        },
      })) as Send,
  })),
  ...(["firstName", "lastName", "username"] as const).map((field) => ({
    call: "edit user",
    field,
    send: ((client, email, text) =>
      client.call(api.editUser, {
        body: {
          email,
          firstName: "Sam",
          lastName: "Sample",
          username: email,
          [field]: `Sam${text}Sample`,
        },
      })) as Send,
  })),
  {
    call: "activatefreetrial",
    field: "instanceName",
    send: (client, _email, text) =>
      client.call(api.activateFreeTrial, {
        body: { vertical: "business", instanceName: `Team${text}Name` },
        idempotencyKey: newKey(),
      }),
  },
  {
    call: "set attribute desiredInstanceName",
    field: "value",
    send: (client, _email, text) =>
      client.call(api.setAttribute, {
        query: { key: "desiredInstanceName", value: `Team${text}Name` },
      }),
  },
  ...(["name", "company", "line1", "line2", "city", "state", "postalCode"] as const).map(
    (field) => ({
      call: "address",
      field,
      send: ((client, _email, text) =>
        client.call(api.address, {
          body: { country: "US", state: "CA", [field]: `A${text}B` },
        })) as Send,
    }),
  ),
  {
    call: "disband",
    field: "reason",
    multiline: true,
    send: (client, _email, text) =>
      client.call(api.disbandInstance, {
        body: {
          reason: `Too${text}expensive`,
          forgetMe: false,
          deleteOwner: false,
          deleteMembers: false,
        },
      }),
  },
];

describe("typed text", () => {
  it.each(FIELDS.map((f) => [f.call, f.field, f] as const))(
    "%s refuses %s with control characters, line breaks or bidi marks, naming the field",
    async (_call, field, { send, multiline }) => {
      const { client, email } = await newAccount();
      const refused = multiline ? OTHERS : ALL;
      for (const [name, character] of Object.entries(refused)) {
        const answer = await send(client, email, character);
        expect({ name, answer }).toMatchObject({
          name,
          answer: {
            status: 400,
            body: {
              error_code: "invalid_request",
              message: expect.stringContaining(`${field} must not contain control characters`),
            },
          },
        });
      }
    },
  );

  it("allows line feeds in a cancellation reason, and stores them as LF", async () => {
    const { client } = await newAccount();
    const answer = await client.call(api.disbandInstance, {
      body: {
        reason: "Too expensive\r\nfor now",
        forgetMe: false,
        deleteOwner: false,
        deleteMembers: false,
      },
    });
    expect(answer.status).toBe(200);
    const payload = await lastEventPayload(server.running.deps.db, "cancellation");
    expect(JSON.parse(payload ?? "{}")).toMatchObject({ reason: "Too expensive\nfor now" });
  });

  it("stores names trimmed and NFC-normalised", async () => {
    const client = server.client();
    const decomposed = "Zoe\u0308"; // e + combining diaeresis
    const signUp = await client.call(api.signUp, {
      body: {
        email: "zoe@example.com",
        password: "secret-1",
        firstName: `  ${decomposed}  `,
        lastName: " Bj\u006f\u0308rk ",
      },
    });
    expect(signUp.ok).toBe(true);
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({ firstName: "Zo\u00eb", lastName: "Bj\u00f6rk" });
    const edit = await client.call(api.editUser, {
      body: {
        email: "zoe@example.com",
        firstName: "Zo\u00eb",
        lastName: "Bj\u00f6rk",
        username: ` zoe${decomposed} `,
      },
    });
    expect(edit.ok).toBe(true);
    const after = await client.call(api.userInfo);
    expect(after.ok && after.body.username).toBe("zoeZo\u00eb");
  });
});

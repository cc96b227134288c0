// @vitest-environment jsdom
// "Buying for an organisation" while its saved details are still on their way: on a slow network
// a person could type into the fields before the saved details came, and the form (mounted again
// to show them) dropped what was typed, so the invoice named the person instead of the company.
// The fields take no typing until the details are there; what is then typed is what is saved.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { createApiClient } from "../../client/client.ts";
import { routedFetch } from "../../client/testing/scripted-fetch.ts";
import { installApiClient } from "../../stores/api.ts";
import { loadBillingDetails, saveBillingDetails } from "../../stores/billing.ts";
import { OrganisationSection } from "./OrganisationSection.tsx";

const SAVED = {
  organisation: "Old Name GmbH",
  taxId: null,
  street: "Hauptstraße 1",
  city: "Berlin",
  reverseCharge: false,
  reissued: [],
};

afterEach(() => {
  cleanup();
  loadBillingDetails.reset();
  saveBillingDetails.reset();
});

it("takes no typing until the saved details have come, then saves what was typed", async () => {
  let release: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchFake = routedFetch({
    "GET /api/5/billing/details": [{ status: 200, body: SAVED, until: arrived }],
    "POST /api/5/billing/details": [
      { status: 200, body: { ...SAVED, organisation: "Beispiel GmbH" } },
    ],
  });
  const saved = () =>
    fetchFake.sent.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body ?? ""));
  installApiClient(createApiClient({ fetch: fetchFake, version: "test" }));
  render(<OrganisationSection />);

  const name = () => screen.getByLabelText("Organisation name") as HTMLInputElement;
  expect(name().matches(":disabled")).toBe(true);
  expect(screen.getByRole("button", { name: "Save organisation" }).matches(":disabled")).toBe(true);

  await act(async () => release());
  await waitFor(() => expect(name().matches(":disabled")).toBe(false));
  expect(name().value).toBe("Old Name GmbH");
  expect((screen.getByLabelText("City") as HTMLInputElement).value).toBe("Berlin");

  fireEvent.change(name(), { target: { value: "Beispiel GmbH" } });
  fireEvent.click(screen.getByRole("button", { name: "Save organisation" }));
  await screen.findByRole("status");
  expect(saved()).toEqual([
    { organisation: "Beispiel GmbH", street: "Hauptstraße 1", city: "Berlin" },
  ]);
  expect(name().value).toBe("Beispiel GmbH");
});

// What a press on the checkout does (issue 34, item 2): a coupon is one field and one Apply, then
// one message; a refused charge is said beside the card fields and focus goes there; and the
// first press after typing always acts: pressing Pay while leaving the ZIP field (which saves the
// address and prices the order again) pays, or, when the address changed the total (sales tax),
// shows the new total and asks again, charging nothing until then.
import { api as contract } from "../../src/contract/index.ts";
import { callTo, expect, test } from "./api-helpers.ts";
import { fillCard, shownTotal } from "./purchase-helpers.ts";

test("a coupon is one field and one Apply, then one message; Remove is a quiet link", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_12m#checkout");
  expect(await shownTotal(page)).toBe("$59.88");
  const coupon = page.getByRole("form", { name: "Coupon" });
  await coupon.getByLabel("Coupon code").fill("nosuchcoupon");
  await coupon.getByRole("button", { name: "Apply" }).click();
  await expect(coupon.getByRole("alert")).toHaveCount(1);
  await expect(coupon.getByRole("alert")).toContainText(/coupon/i);
  await coupon.getByLabel("Coupon code").fill("referafriend");
  await coupon.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("total")).toHaveText("$44.91");
  await expect(coupon.getByText("Coupon referafriend applied: you save $14.97.")).toBeVisible();
  await expect(coupon.getByRole("alert")).toHaveCount(0);
  const remove = coupon.getByRole("button", { name: "Remove coupon" });
  // Quiet: a link's look, not a filled button.
  const look = await remove.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, underline: style.textDecorationLine };
  });
  expect(look).toEqual({ background: "rgba(0, 0, 0, 0)", underline: "underline" });
  await remove.click();
  await expect(page.getByTestId("total")).toHaveText("$59.88");
  await expect(coupon.getByText(/^Coupon referafriend/)).toHaveCount(0);
});

test("a refused charge is said beside the card fields, and focus moves to what to fix", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_1m#checkout");
  const pay = page.getByRole("button", { name: "Pay $9.99" });
  const cvc = page.getByLabel("Security code (CVC)");
  await fillCard(page, "4000 0000 0000 0127");
  await pay.click();
  const wrongCvc = page
    .getByRole("alert")
    .filter({ hasText: "You did not enter the correct CVC code for your card." });
  await expect(wrongCvc).toBeVisible();
  await expect(cvc).toBeFocused();
  // Between the card's fields and Pay, not under the terms line.
  const [cvcBox, alertBox, payBox] = await Promise.all(
    [cvc, wrongCvc, pay].map((l) => l.boundingBox()),
  );
  expect(cvcBox && alertBox && payBox && cvcBox.y < alertBox.y && alertBox.y < payBox.y).toBe(true);
  // A decline: another card is what to type, so the card number gets the focus.
  await fillCard(page, "4000 0000 0000 0002");
  await pay.click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Your card was declined." }),
  ).toBeVisible();
  await expect(page.getByLabel("Card number")).toBeFocused();
});

test("pressing Pay while leaving the ZIP field pays: the press is not lost", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_12m#checkout");
  expect(await shownTotal(page)).toBe("$59.88");
  await page.getByLabel("State", { exact: true }).selectOption({ label: "Oregon" });
  // The ZIP is typed last and still has the focus when Pay is pressed.
  await fillCard(page, "4242 4242 4242 4242", { label: "ZIP code", code: "97201" });
  await expect(page.getByLabel("ZIP code", { exact: true })).toBeFocused();
  await page.getByRole("button", { name: "Pay $59.88" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByTestId("paid")).toHaveText("$59.88");
});

test("choosing PayPal while leaving the ZIP field chooses it", async ({ page, api }) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_12m#checkout");
  expect(await shownTotal(page)).toBe("$59.88");
  await page.getByLabel("State", { exact: true }).selectOption({ label: "Oregon" });
  const zip = page.getByLabel("ZIP code", { exact: true });
  await zip.fill("97201");
  await expect(zip).toBeFocused();
  await page.getByRole("radio", { name: "PayPal" }).click();
  await expect(page.getByRole("radio", { name: "PayPal" })).toBeChecked();
  await expect(page.getByRole("button", { name: "Pay $59.88 with PayPal" })).toBeVisible();
});

test("a press that the address reprices shows the new total and asks again, charging nothing", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_12m#checkout");
  expect(await shownTotal(page)).toBe("$59.88");
  // The address's save answers only once the press is made, so that the press always lands while
  // it is under way, whatever the machine's speed (on a busy machine the new total could
  // otherwise be on the button before the press, and the press would rightly pay it).
  let answerAddress = () => {};
  const pressed = new Promise<void>((resolve) => {
    answerAddress = resolve;
  });
  await page.route(callTo(contract.address), async (route) => {
    await pressed;
    await route.continue();
  });
  await page.getByLabel("State", { exact: true }).selectOption({ label: "California" });
  await fillCard(page, "4242 4242 4242 4242", { label: "ZIP code", code: "90001" });
  await page.getByRole("button", { name: "Pay $59.88" }).click();
  answerAddress();
  await expect(
    page.getByRole("alert").filter({ hasText: "The price changed since you saw it." }),
  ).toBeVisible();
  await expect(page.getByTestId("total")).toHaveText("$64.22");
  const confirm = page.getByRole("button", { name: "Pay $64.22" });
  await expect(confirm).toBeVisible();
  expect(await api.call(contract.invoices, { params: { page: 1 } })).toHaveLength(0);
  await confirm.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByTestId("paid")).toHaveText("$64.22");
});

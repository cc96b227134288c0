import { describe, expect, it } from "vitest";
import { US_STATES } from "./regions.ts";
import { stateOfZip, usAddressProblem } from "./zip-states.ts";

const name = (code: string) => US_STATES[code] ?? code;

describe("stateOfZip", () => {
  it("names the state of a ZIP code's first three digits", () => {
    expect(stateOfZip("94103")).toBe("CA");
    expect(stateOfZip("10001")).toBe("NY");
    expect(stateOfZip("97201")).toBe("OR");
    expect(stateOfZip("02108")).toBe("MA");
    expect(stateOfZip("20500")).toBe("DC");
    expect(stateOfZip("73301")).toBe("TX");
    expect(stateOfZip("99501-1234")).toBe("AK");
  });

  it("names none for what is not a ZIP code of a state", () => {
    expect(stateOfZip("00501")).toBe("NY");
    expect(stateOfZip("00100")).toBeNull();
    expect(stateOfZip("09001")).toBeNull(); // armed forces
    expect(stateOfZip("9410")).toBeNull();
    expect(stateOfZip("ABCDE")).toBeNull();
  });

  it("knows a state for every state of the list", () => {
    const named = new Set<string>();
    for (let prefix = 0; prefix < 1000; prefix++) {
      const state = stateOfZip(`${String(prefix).padStart(3, "0")}00`);
      if (state !== null) named.add(state);
    }
    expect([...named].sort()).toEqual(Object.keys(US_STATES).sort());
  });
});

describe("usAddressProblem", () => {
  it("asks for the state of a US address", () => {
    expect(usAddressProblem({ state: undefined, postalCode: "94103" }, name)).toEqual({
      field: "state",
      message: "Choose your state: it decides the sales tax of a US address.",
    });
  });

  it("refuses a state that disagrees with the ZIP code, naming both", () => {
    expect(usAddressProblem({ state: "OR", postalCode: "94103" }, name)).toEqual({
      field: "state",
      message: "ZIP code 94103 is in California, not Oregon. Check the state or the ZIP code.",
    });
    expect(usAddressProblem({ state: "CA", postalCode: "94103" }, name)).toBeNull();
    expect(usAddressProblem({ state: "CA", postalCode: undefined }, name)).toBeNull();
  });
});

// React as a default export, for the payment providers' React bindings only (astro.config.mjs).
// They write `import React from "react"`; React is a CommonJS module, and that one default import
// makes the bundler wrap React in its interop helper in every chunk and add the helper to the
// runtime every /cart page loads (236 bytes gzip over the shell's budget). Through this module
// they get the same React functions by name, as our own code imports them. Decision 0019.
import {
  Component,
  createContext,
  createElement,
  Fragment,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";

export {
  Component,
  createContext,
  createElement,
  Fragment,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
};

export default {
  Component,
  createContext,
  createElement,
  Fragment,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
};

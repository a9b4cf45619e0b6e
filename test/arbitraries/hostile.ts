/**
 * Hostile text for the output formats' tests (issue 40): control characters, escape sequences, bidirectional and
 * line-separator controls, lone surrogates, spreadsheet formula leaders (ASCII and full-width), the formats' own
 * delimiters and markup, among ordinary letters, accents and emoji.
 */
import * as fc from "fast-check"

/** The characters an output format must not let through as they are, and their neighbours. */
export const hostileChars = [
  "\u001b",
  "\u0007",
  "\u0000",
  "\u0008",
  "\t",
  "\r",
  "\n",
  "\u000b",
  "\u000c",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u061c",
  "\u200e",
  "\u202e",
  "\u2028",
  "\u2029",
  "\u2066",
  "\ud800",
  "\udfff",
  "=",
  "+",
  "-",
  "@",
  "\uff1d",
  "\uff0b",
  '"',
  "'",
  ",",
  ";",
  ":",
  "\\",
  "<",
  ">",
  "&",
  "]",
  "0",
  " "
]

/** Hostile text: a few of those characters among ordinary ones (letters, accents, emoji). */
export const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...hostileChars), fc.string({ minLength: 1, maxLength: 3, unit: "grapheme" })), {
    minLength: 1,
    maxLength: 10
  })
  .map((parts) => parts.join(""))

/** Control characters, bidirectional and line-separator controls, lone surrogates: none may come back. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters is the point
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\p{Cs}/u

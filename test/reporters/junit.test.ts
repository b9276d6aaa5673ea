import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { renderJunit } from "../../src/reporters/junit/junit.js";
import { xmlAttribute, xmlText } from "../../src/reporters/junit/xml.js";
import { HOSTILE_NAMES, hostileView, trialsView } from "./views.js";

/** What a conforming parser gives back for a name: XML 1.0 cannot carry some characters at all. */
function expectedBack(name: string): string {
  let out = "";
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    const high = code >= 0xd800 && code <= 0xdbff;
    const pairedHigh = high && (name.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
    const pairedLow = (code & 0xfc00) === 0xdc00 && (name.charCodeAt(index - 1) & 0xfc00) === 0xd800;
    const illegal =
      (code < 0x20 && code !== 9 && code !== 10 && code !== 13) ||
      code === 0xfffe ||
      code === 0xffff ||
      (high && !pairedHigh) ||
      ((code & 0xfc00) === 0xdc00 && !pairedLow);
    out += illegal ? `\\u${code.toString(16).toUpperCase().padStart(4, "0")}` : name[index];
  }
  return out;
}

function parse(xml: string) {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    htmlEntities: true,
    trimValues: false,
    isArray: (name) => ["testcase", "property"].includes(name),
    processEntities: true,
  });
  return parser.parse(xml);
}

describe("JUnit XML", () => {
  const xml = renderJunit(hostileView(), { classname: "path" });

  it("is well-formed XML with hostile scenario names, and never contains a raw ]]> or control character", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.includes("]]>")).toBe(false);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)).toBe(false);
  });

  it("gives every name back through a parser, with only XML-illegal characters spelled \\uXXXX", () => {
    const doc = parse(xml);
    const cases = doc.testsuites.testsuite.testcase as { name: string; classname: string }[];
    expect(cases.map((testcase) => testcase.name)).toEqual(HOSTILE_NAMES.map(expectedBack));
    expect(cases[1]?.classname).toBe(hostileView().document.entries[1]?.path);
  });

  it("has the shape GitHub, GitLab and Jenkins read: counts, one testsuite, failure and error children", () => {
    const doc = parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({
      name: "agentchaos",
      tests: "7",
      failures: "2",
      errors: "2",
      skipped: "0",
      time: "10.500",
    });
    expect(doc.testsuites).toMatchObject({ tests: "7", failures: "2", errors: "2" });
    const cases = suite.testcase as Record<string, Record<string, unknown>>[];
    const second = cases[1] as Record<string, Record<string, unknown>>;
    expect(cases[0]).not.toHaveProperty("failure");
    expect(cases[0]?.time).toBe("1.000");
    expect(cases[1]?.failure).toMatchObject({
      message: "RECOVERY_NOT_OBSERVED",
      type: "RECOVERY_NOT_OBSERVED",
    });
    expect(second.failure?.["#text"]).toContain("]]> second line");
    expect(cases[2]?.error).toMatchObject({ type: "SCENARIO_INVALID" });
    expect(cases[4]?.error).toMatchObject({ type: "DEPENDENCY_START_FAILED" });
    const properties = second.properties?.property;
    expect(properties).toEqual([
      { name: "result", value: "FAILED" },
      { name: "reason_code", value: "RECOVERY_NOT_OBSERVED" },
      { name: "run_folder", value: "run-1" },
    ]);
    expect(String(cases[0]?.["system-out"])).toContain("Result: RECOVERED");
  });

  it("uses the scenario name as classname for a single run", () => {
    const doc = parse(renderJunit(hostileView(), { classname: "name" }));
    expect(doc.testsuites.testsuite.testcase[0].classname).toBe(HOSTILE_NAMES[0]);
  });

  it("escapes attribute whitespace as character references so parsers keep it", () => {
    expect(xmlAttribute('a\tb\nc\rd"e')).toBe("a&#9;b&#10;c&#13;d&quot;e");
    expect(xmlText("x]]>y\r")).toBe("x]]&gt;y&#13;");
  });

  it("writes one test case per scenario run with trials: the class and counts as failure message, each trial's line in system-out", () => {
    const junit = renderJunit(trialsView(), { classname: "path" });
    expect(XMLValidator.validate(junit)).toBe(true);
    const suite = parse(junit).testsuites.testsuite;
    expect(suite).toMatchObject({ tests: "3", failures: "1", errors: "1", skipped: "0" });
    const [flaky, stable, setup] = suite.testcase as Record<string, Record<string, unknown>>[];
    expect(flaky?.failure).toMatchObject({
      message:
        "5 trials: 3 passed, 2 failed (RECOVERY_NOT_OBSERVED ×2) — flaky, pass rate 0.60 [0.2307, 0.8824]",
      type: "flaky",
    });
    expect(String(flaky?.failure?.["#text"]).split("\n")).toEqual([
      "FAILED     RECOVERY_NOT_OBSERVED           1.00s  trial 2 of 5  trials-a/run-2",
      "FAILED     RECOVERY_NOT_OBSERVED           1.00s  trial 4 of 5  trials-a/run-4",
    ]);
    expect(flaky?.properties?.property).toEqual([
      { name: "result", value: "FAILED" },
      { name: "reason_code", value: "flaky" },
      { name: "run_folder", value: "trials-a" },
      { name: "trials", value: "5" },
      { name: "passed", value: "3" },
      { name: "pass_rate", value: "0.6" },
      { name: "class", value: "flaky" },
      { name: "min_pass_rate", value: "1" },
    ]);
    expect(flaky?.["system-out"]).toBe("trial lines of flaky one\n");
    expect(stable).not.toHaveProperty("failure");
    expect(stable).not.toHaveProperty("error");
    expect(setup?.error).toMatchObject({ type: "stable_fail" });
  });
});

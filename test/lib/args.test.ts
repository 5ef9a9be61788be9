import { expect, test } from "bun:test";
import { parseFlags, takeFlags, UsageError } from "../../src/lib/args";

const spec = { to: "value", json: "bool", header: "multi" } as const;
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  return "accepted";
};

test("values after a space or an =, booleans, repeated flags and positionals in their order", () => {
  const p = parseFlags(["ch", "--to", "http://a", "--json", "--header=a: 1", "-", "--header", "b: 2", "--to=http://b"], spec);
  expect(p.positional).toEqual(["ch", "-"]);
  expect(p.values).toEqual({ to: "http://b" });
  expect([...p.bools]).toEqual(["json"]);
  expect(p.multi).toEqual({ header: ["a: 1", "b: 2"] });
});

test("after -- every argument is a positional; a value may start with a dash", () => {
  expect(parseFlags(["--to", "-x", "--", "--json", "-y"], spec)).toEqual({ positional: ["--json", "-y"], values: { to: "-x" }, bools: new Set(), multi: {} });
});

test("an unknown flag (with the closest known), a value missing, a value given to a boolean: each refused", () => {
  expect(refusal(() => parseFlags(["--jsno"], spec))).toBe("unknown flag --jsno (did you mean --json?)");
  expect(refusal(() => parseFlags(["--constructor"], spec))).toBe("unknown flag --constructor");
  expect(refusal(() => parseFlags(["--to"], spec))).toBe("--to needs a value");
  expect(refusal(() => parseFlags(["--json=yes"], spec))).toBe("--json takes no value");
});

test("flags only: a dashed argument is a flag, any other is refused as it comes; values are checked as they come", () => {
  const options = {
    notAFlag: (arg: string) => `unexpected argument: ${arg}`,
    unknown: (name: string) => `unknown flag for serve: ${name}`,
    check: (name: string, v: string) => (name === "to" && !v.startsWith("http") ? `--to: not a URL: ${v}` : undefined),
  };
  expect(refusal(() => parseFlags(["--json", "extra", "--nope"], spec, options))).toBe("unexpected argument: extra");
  expect(refusal(() => parseFlags(["-x=1", "extra"], spec, options))).toBe("unknown flag for serve: -x");
  expect(refusal(() => parseFlags(["--"], spec, options))).toBe("unknown flag for serve: --");
  expect(refusal(() => parseFlags(["--to=ftp://a", "--nope"], spec, options))).toBe("--to: not a URL: ftp://a");
  expect(refusal(() => parseFlags(["--to", "http://a", "--json"], spec, options))).toBe("accepted");
});

test("takeFlags takes its flags wherever they stand and leaves the rest in order", () => {
  const t = takeFlags(["--url=http://x", "hooks", "list", "--token", "t", "--json", "--", "--insecure"], { url: "value", token: "value", insecure: "bool" });
  expect(t.rest).toEqual(["hooks", "list", "--json", "--"]);
  expect(t.values).toEqual({ url: "http://x", token: "t" });
  expect([...t.bools]).toEqual(["insecure"]);
  expect(refusal(() => takeFlags(["list", "--url"], { url: "value" }))).toBe("--url needs a value");
});

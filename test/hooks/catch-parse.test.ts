import { expect, test } from "bun:test";
import { channelParam, headersJson } from "../../src/hooks/catch";

test("channelParam reads the channel exactly as URLSearchParams would", () => {
  const queries = [
    "",
    "channel=a",
    "x=1&channel=b",
    "channel=b&channel=c",
    "channel",
    "channel=",
    "channelx=1",
    "xchannel=1",
    "&&channel=d&",
    "a=1&b=2",
    "channel=a%2Db",
    "channel=a+b",
    "%63hannel=e",
    "channel=f&x=%20",
    "=&channel=g",
    "channel=h=i",
  ];
  for (const q of queries) expect([q, channelParam(q)]).toEqual([q, q === "" ? null : new URLSearchParams(q).get("channel")]);
});

test("headersJson keeps lower-case names, joins repeated headers and leaves cookies out", () => {
  const h = new Headers();
  h.append("X-Multi", "one");
  h.append("x-multi", "two");
  h.append("Cookie", "session=secret");
  h.append("Set-Cookie", "a=1");
  h.append("Set-Cookie", "b=2");
  expect(JSON.parse(headersJson(h))).toEqual({ "x-multi": "one, two", "set-cookie": "a=1, b=2" });
});

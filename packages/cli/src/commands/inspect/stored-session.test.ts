// A server's URL as the inspect page names it: never with its password, nor a query that may carry one.
import { describe, expect, it } from "vitest";
import { displayUrl } from "./stored-session.js";

describe("displayUrl", () => {
  it("should hide the password and drop the query", () => {
    expect(displayUrl("postgres://agent:s3cret@db.internal:5432/agents?sslpassword=p&x=1")).toBe(
      "postgres://agent:***@db.internal:5432/agents",
    );
    expect(displayUrl("redis://:s3cret@127.0.0.1:6379/0")).toBe("redis://:***@127.0.0.1:6379/0");
  });

  it("should keep a URL without secrets as it is, and never echo one that does not parse", () => {
    expect(displayUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
    expect(displayUrl("postgres://a:b@[bad")).toBe("(a URL that does not parse)");
  });
});

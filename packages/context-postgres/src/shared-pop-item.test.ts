// popItem of the OpenAI Agents session on one PostgreSQL session that two workers write.
import { itPopsOnlyWhatItRead } from "@ctxkit/test-support/shared-pop-item";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";

const schema = "ctxkit_test";

describeWithPostgres("popItem on a session two workers share", (connectionString) => {
  const open = (sessionId: string) => createPostgresContext({ connectionString, schema, sessionId, tokenizer: "estimate" });

  itPopsOnlyWhatItRead(open);
});

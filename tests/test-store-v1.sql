-- SPDX-License-Identifier: LGPL-2.1-or-later
-- A conversation database as the first schema (version 1) wrote it: the
-- starting point of test-store-list's /store/migrate-from-v1. Frozen: do
-- not change it when the schema changes.
PRAGMA application_id = 1634168436;
PRAGMA user_version = 1;
CREATE TABLE conversations (
  id       INTEGER PRIMARY KEY,
  title    TEXT,
  created  INTEGER NOT NULL,
  updated  INTEGER NOT NULL,
  provider TEXT,
  model    TEXT,
  settings TEXT
);
CREATE INDEX conversations_by_update ON conversations (updated);
CREATE TABLE messages (
  id              INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  role            TEXT NOT NULL,
  state           TEXT NOT NULL,
  content         TEXT,
  reasoning       TEXT,
  refusal         TEXT,
  tool_call_id    TEXT,
  tool_name       TEXT,
  is_error        INTEGER NOT NULL DEFAULT 0,
  finish_reason   TEXT,
  response_id     TEXT,
  model           TEXT,
  created         INTEGER NOT NULL,
  usage           TEXT,
  metrics         TEXT,
  turn_metrics    TEXT,
  provider_data   TEXT,
  UNIQUE (conversation_id, position)
);
CREATE TABLE tool_calls (
  message_id    INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  call_id       TEXT,
  name          TEXT NOT NULL,
  type          TEXT,
  arguments     TEXT NOT NULL,
  state         TEXT NOT NULL,
  result        TEXT,
  is_error      INTEGER NOT NULL DEFAULT 0,
  duration      INTEGER NOT NULL DEFAULT -1,
  provider_data TEXT,
  PRIMARY KEY (message_id, position)
) WITHOUT ROWID;

INSERT INTO conversations VALUES
  (1, 'Old sums', 1700000000000000, 1700000005000000, 'openai', 'gpt-test', '{"base-url":"http://127.0.0.1:1/v1"}'),
  (2, NULL, 1700000100000000, 1700000100000000, 'anthropic', 'claude-test', NULL);
INSERT INTO messages VALUES
  (1, 1, 0, 'user', 'complete', 'What is the sum of the Pythagoras numbers?', NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 1700000000000000, NULL, NULL, NULL, NULL),
  (2, 1, 1, 'assistant', 'complete', NULL, 'Use the calculator.', NULL, NULL, NULL, 0, 'tool_calls', 'chatcmpl-1', 'gpt-test', 1700000001000000,
   '{"prompt-tokens":10,"completion-tokens":5,"total-tokens":15,"reasoning-tokens":0,"cached-tokens":0,"raw":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}',
   NULL, NULL, '{"anthropic":{"signature":"sig=="}}'),
  (3, 1, 2, 'tool', 'complete', '12', NULL, NULL, 'call_1', 'calculator', 0, NULL, NULL, NULL, 1700000002000000, NULL, NULL, NULL, NULL),
  (4, 1, 3, 'assistant', 'interrupted', 'The sum is tw', NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 1700000003000000, NULL, NULL, NULL, NULL),
  (5, 2, 0, 'user', 'complete', 'Ein Café, bitte', NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 1700000100000000, NULL, NULL, NULL, NULL);
INSERT INTO tool_calls VALUES
  (2, 0, 'call_1', 'calculator', 'function', '{"expression":"3+4+5"}', 'succeeded', '12', 0, 1500, NULL);

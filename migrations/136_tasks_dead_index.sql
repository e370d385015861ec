-- Dead tasks (dead-lettered after their last attempt) counted by name at every /metrics scrape
-- (issue 29, item 4): a partial index keeps that read to the dead tasks only, never the finished
-- ones. Dead tasks wait for an operator (console retry) and are few.
CREATE INDEX tasks_dead ON tasks (name) WHERE state = 'dead';

-- Deleted subscribers by id (few): a search by a tag alone counts the tag's members from the tag's index,
-- less these, instead of merging it with the index of every visible subscriber (32 ms a tag search under
-- the mixed load at 200,000 subscribers; search speed goal).
CREATE INDEX IF NOT EXISTS "subscribers_hidden_id_idx" ON "subscribers" USING btree ("id") WHERE "subscribers"."hidden";

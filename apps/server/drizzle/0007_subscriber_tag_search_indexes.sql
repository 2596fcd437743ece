DROP INDEX "subscriber_tags_tag_idx";--> statement-breakpoint
CREATE INDEX "subscribers_visible_id_idx" ON "subscribers" USING btree ("id") WHERE not "subscribers"."hidden";--> statement-breakpoint
CREATE INDEX "subscriber_tags_tag_idx" ON "subscriber_tags" USING btree ("tag_id","subscriber_id");
import { Migration } from '@mikro-orm/migrations';

export class Migration20261126222300 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "conversation_holds" add column "memory" jsonb not null default '{}', add column "active" boolean not null default true, add column "version" int not null default 0;`);
    // The chatbot's state was one object: walking the tree becomes the hold's `active`, its place the
    // working state, its menu count and pause the memory that lasts the conversation.
    this.addSql(`update "conversation_holds" set
      "active" = coalesce(("state"->>'navigating')::boolean, false),
      "memory" = jsonb_build_object('menus', coalesce("state"->'menus', '0'::jsonb), 'pausedUntil', coalesce("state"->'pausedUntil', 'null'::jsonb)),
      "state" = case when coalesce(("state"->>'navigating')::boolean, false) then jsonb_build_object('optionId', coalesce("state"->'optionId', 'null'::jsonb)) else '{}'::jsonb end
      where "holder" = 'chatbot';`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "conversation_holds" set "state" = "state" || "memory" || jsonb_build_object('navigating', "active") where "holder" = 'chatbot';`);
    this.addSql(`alter table "conversation_holds" drop column "memory", drop column "active", drop column "version";`);
  }

}

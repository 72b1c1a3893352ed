import { Migration } from '@mikro-orm/migrations';

export class Migration20261124131518 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "conversation_holds" ("ticket_id" int not null, "company_id" int not null, "holder" varchar(16) not null, "holder_id" int null, "state" jsonb not null default '{}', "updated_at" timestamptz not null, constraint "conversation_holds_pkey" primary key ("ticket_id"));`);

    this.addSql(`alter table "conversation_holds" add constraint "conversation_holds_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_holds" add constraint "conversation_holds_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    // Who held each conversation, from the flags it replaces: an integration or a prompt, else the chatbot's
    // memory (its place in the option tree, menus sent, pause).
    this.addSql(`insert into "conversation_holds" ("ticket_id", "company_id", "holder", "holder_id", "state", "updated_at")
      select t.id, t.company_id,
             case when t.use_integration then 'integration' when t.prompt_id is not null then 'prompt' else 'chatbot' end,
             case when t.use_integration then t.integration_id when t.prompt_id is not null then t.prompt_id end,
             case when t.use_integration or t.prompt_id is not null then '{}'::jsonb
                  else jsonb_build_object('navigating', t.chatbot, 'optionId', t.queue_option_id, 'menus', t.bot_menu_count,
                         'pausedUntil', to_jsonb(t.bot_paused_until)) end,
             now()
        from "tickets" t
       where t.status <> 'closed'
         and (t.chatbot or t.use_integration or t.prompt_id is not null or t.bot_menu_count > 0 or t.bot_paused_until is not null);`);
    this.addSql(`alter table "tickets" drop column "chatbot", drop column "use_integration", drop column "integration_id", drop column "prompt_id", drop column "queue_option_id", drop column "bot_menu_count", drop column "bot_paused_until";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "conversation_holds" cascade;`);

    this.addSql(`alter table "tickets" add column "chatbot" bool not null default false, add column "use_integration" bool not null default false, add column "integration_id" int4 null, add column "prompt_id" int4 null, add column "queue_option_id" int4 null, add column "bot_menu_count" int4 not null default 0, add column "bot_paused_until" timestamptz(6) null;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261126231104 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "outbox_pacing_state" ("whatsapp_id" int not null, "company_id" int not null, "next_at" timestamptz not null, "streak" int not null default 0, "day" date null, "day_count" int not null default 0, "last_at" timestamptz null, constraint "outbox_pacing_state_pkey" primary key ("whatsapp_id"));`);

    this.addSql(`create table "outbox_pacing" ("id" serial primary key, "company_id" int not null, "whatsapp_id" int not null, "name" varchar(60) not null, "gap_ms" int not null default 0, "long_gap_every" int not null default 0, "long_gap_ms" int not null default 0, "daily_cap" int not null default 0, "window_from" smallint null, "window_to" smallint null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "outbox_pacing" add constraint "outbox_pacing_whatsapp_id_name_unique" unique ("whatsapp_id", "name");`);

    this.addSql(`alter table "outbox_pacing_state" add constraint "outbox_pacing_state_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "outbox_pacing_state" add constraint "outbox_pacing_state_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "outbox_pacing" add constraint "outbox_pacing_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "outbox_pacing" add constraint "outbox_pacing_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "outbound_messages" add column "failed_at" timestamptz null, add column "delivered_at" timestamptz null, add column "read_at" timestamptz null, add column "priority" smallint not null default 0, add column "bulk_seq" int not null default 0, add column "pacing_id" int null, add column "source_kind" varchar(20) not null default 'system', add column "source_id" int null;`);
    this.addSql(`alter table "outbound_messages" add constraint "outbound_messages_pacing_id_foreign" foreign key ("pacing_id") references "outbox_pacing" ("id") on update cascade on delete set null;`);
    // What the rows written before could tell: when a failed row failed, and an agent's reply as the agent's.
    this.addSql(`update "outbound_messages" set "failed_at" = "updated_at" where "status" = 'failed';`);
    this.addSql(`update "outbound_messages" o set "source_kind" = 'agent', "source_id" = m."user_id" from "messages" m
      where m."id" = o."message_id" and m."user_id" is not null and not m."is_system";`);
    this.addSql(`create index "outbound_messages_claim" on "outbound_messages" ("whatsapp_id", "priority", "bulk_seq", "planned_at", "id") where "status" = 'pending';`);
    this.addSql(`create index "outbound_messages_source" on "outbound_messages" ("company_id", "source_kind", "source_id") where "source_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "outbound_messages" drop constraint "outbound_messages_pacing_id_foreign";`);

    this.addSql(`drop table if exists "outbox_pacing_state" cascade;`);

    this.addSql(`drop table if exists "outbox_pacing" cascade;`);

    this.addSql(`drop index "outbound_messages_claim";`);
    this.addSql(`drop index "outbound_messages_source";`);
    this.addSql(`alter table "outbound_messages" drop column "failed_at", drop column "delivered_at", drop column "read_at", drop column "priority", drop column "bulk_seq", drop column "pacing_id", drop column "source_kind", drop column "source_id";`);
  }

}

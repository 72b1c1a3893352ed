import { Migration } from '@mikro-orm/migrations';

export class Migration20261127003636 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "ai_usages" ("id" serial primary key, "company_id" int not null, "day" date not null, "kind" varchar(16) not null, "model" varchar(100) not null, "requests" int not null default 0, "prompt_tokens" int not null default 0, "completion_tokens" int not null default 0, "total_tokens" int not null default 0);`);
    this.addSql(`alter table "ai_usages" add constraint "ai_usages_company_id_day_kind_model_unique" unique ("company_id", "day", "kind", "model");`);

    this.addSql(`create table "prompts" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "prompt" text not null, "model" varchar(100) not null, "max_tokens" int not null, "temperature" double precision not null, "max_messages" int not null, "queue_id" int null, "api_key_sealed" text not null, "api_key_last4" varchar(4) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "prompts_company_id_index" on "prompts" ("company_id");`);

    this.addSql(`create table "queue_integrations" ("id" serial primary key, "company_id" int not null, "type" varchar(20) not null, "name" varchar(50) not null, "project_name" varchar(200) not null default '', "language" varchar(10) not null default 'pt-BR', "url_n8n" varchar(2000) not null default '', "typebot_slug" varchar(200) not null default '', "typebot_expires" int not null default 1, "typebot_delay_message" int not null default 1000, "typebot_keyword_finish" varchar(100) not null default '', "typebot_keyword_restart" varchar(100) not null default '', "typebot_restart_message" text not null default '', "typebot_unknown_message" text not null default '', "json_content_sealed" text not null default '', "json_content_last4" varchar(4) not null default '', "service_account_email" varchar(300) not null default '', "auth_type" varchar(10) not null default 'none', "auth_user" varchar(200) not null default '', "auth_header_name" varchar(100) not null default '', "auth_secret_sealed" text not null default '', "auth_secret_last4" varchar(4) not null default '', "webhook_sync" boolean not null default false, "signing_secret_sealed" text not null default '', "signing_secret_last4" varchar(4) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "queue_integrations" add constraint "queue_integrations_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "webhook_deliveries" ("id" serial primary key, "company_id" int not null, "integration_id" int not null, "ticket_id" int null, "message_id" int null, "event_id" varchar(100) not null, "event" varchar(50) not null, "payload" jsonb not null, "status" varchar(10) not null default 'pending', "attempts" int not null default 0, "status_code" int null, "error" varchar(500) null, "duration_ms" int null, "next_attempt_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "webhook_deliveries_integration_id_created_at_index" on "webhook_deliveries" ("integration_id", "created_at");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_integration_id_event_id_unique" unique ("integration_id", "event_id");`);

    this.addSql(`alter table "ai_usages" add constraint "ai_usages_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "prompts" add constraint "prompts_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "prompts" add constraint "prompts_queue_id_foreign" foreign key ("queue_id") references "queues" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "queue_integrations" add constraint "queue_integrations_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_integration_id_foreign" foreign key ("integration_id") references "queue_integrations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_message_id_foreign" foreign key ("message_id") references "messages" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_integration_id_foreign";`);

    this.addSql(`drop table if exists "ai_usages" cascade;`);

    this.addSql(`drop table if exists "prompts" cascade;`);

    this.addSql(`drop table if exists "queue_integrations" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }

}

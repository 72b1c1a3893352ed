import { Migration } from '@mikro-orm/migrations';

export class Migration20261127004152 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "flow_media" ("file_name" varchar(100) not null, "company_id" int not null, "kind" varchar(10) not null, "mimetype" varchar(100) not null, "media_name" varchar(300) not null, "size" int not null, "voice_file_name" varchar(100) null, "created_at" timestamptz not null, constraint "flow_media_pkey" primary key ("file_name"));`);
    this.addSql(`create index "flow_media_company_id_index" on "flow_media" ("company_id");`);

    this.addSql(`create table "flows" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "active" boolean not null default true, "version" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "flows" add constraint "flows_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "flow_versions" ("flow_id" int not null, "version" int not null, "company_id" int not null, "graph" jsonb not null, "created_at" timestamptz not null, constraint "flow_versions_pkey" primary key ("flow_id", "version"));`);

    this.addSql(`create table "flow_runs" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "flow_id" int null, "version" int not null, "trigger" varchar(10) not null, "campaign_id" int null, "status" varchar(10) not null default 'running', "started_at" timestamptz not null, "ended_at" timestamptz null);`);
    this.addSql(`create index "flow_runs_flow_id_index" on "flow_runs" ("flow_id");`);
    this.addSql(`create index "flow_runs_ticket_id_trigger_index" on "flow_runs" ("ticket_id", "trigger");`);

    this.addSql(`create table "flow_steps" ("id" bigserial primary key, "company_id" int not null, "run_id" int not null, "ticket_id" int not null, "node_id" varchar(30) not null, "node_type" varchar(20) not null, "outcome" varchar(40) not null, "detail" varchar(300) null, "created_at" timestamptz not null);`);
    this.addSql(`create index "flow_steps_run_id_index" on "flow_steps" ("run_id");`);
    this.addSql(`create index "flow_steps_ticket_id_id_index" on "flow_steps" ("ticket_id", "id");`);
    this.addSql(`create index "flow_steps_created_at_index" on "flow_steps" ("created_at");`);

    this.addSql(`create table "flow_campaigns" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "flow_id" int not null, "whatsapp_id" int not null, "phrase" varchar(500) not null, "phrase_key" varchar(500) not null, "status" boolean not null default true, "match_type" varchar(10) not null default 'exact', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "flow_campaigns_flow_id_index" on "flow_campaigns" ("flow_id");`);
    this.addSql(`alter table "flow_campaigns" add constraint "flow_campaigns_whatsapp_id_phrase_key_unique" unique ("whatsapp_id", "phrase_key");`);

    this.addSql(`alter table "flow_media" add constraint "flow_media_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "flows" add constraint "flows_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "flow_versions" add constraint "flow_versions_flow_id_foreign" foreign key ("flow_id") references "flows" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_versions" add constraint "flow_versions_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "flow_runs" add constraint "flow_runs_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_runs" add constraint "flow_runs_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_runs" add constraint "flow_runs_flow_id_foreign" foreign key ("flow_id") references "flows" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "flow_steps" add constraint "flow_steps_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_steps" add constraint "flow_steps_run_id_foreign" foreign key ("run_id") references "flow_runs" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "flow_campaigns" add constraint "flow_campaigns_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_campaigns" add constraint "flow_campaigns_flow_id_foreign" foreign key ("flow_id") references "flows" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "flow_campaigns" add constraint "flow_campaigns_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "whatsapps" add column "flow_id_welcome" int null, add column "flow_id_not_phrase" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "flow_versions" drop constraint "flow_versions_flow_id_foreign";`);

    this.addSql(`alter table "flow_runs" drop constraint "flow_runs_flow_id_foreign";`);

    this.addSql(`alter table "flow_campaigns" drop constraint "flow_campaigns_flow_id_foreign";`);

    this.addSql(`alter table "flow_steps" drop constraint "flow_steps_run_id_foreign";`);

    this.addSql(`drop table if exists "flow_media" cascade;`);

    this.addSql(`drop table if exists "flows" cascade;`);

    this.addSql(`drop table if exists "flow_versions" cascade;`);

    this.addSql(`drop table if exists "flow_runs" cascade;`);

    this.addSql(`drop table if exists "flow_steps" cascade;`);

    this.addSql(`drop table if exists "flow_campaigns" cascade;`);

    this.addSql(`alter table "whatsapps" drop column "flow_id_welcome", drop column "flow_id_not_phrase";`);
  }

}

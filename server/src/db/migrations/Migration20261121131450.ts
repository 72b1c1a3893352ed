import { Migration } from '@mikro-orm/migrations';

export class Migration20261121131450 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "helps" ("id" serial primary key, "title" varchar(200) not null, "description" text not null default '', "video" varchar(300) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);

    this.addSql(`create table "plans" ("id" serial primary key, "name" varchar(100) not null, "users" int not null default 0, "connections" int not null default 0, "queues" int not null default 0, "value" numeric(12,2) not null default 0, "use_campaigns" boolean not null default true, "use_kanban" boolean not null default true, "use_open_ai" boolean not null default true, "use_integrations" boolean not null default true, "use_schedules" boolean not null default true, "use_internal_chat" boolean not null default true, "use_external_api" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "plans" add constraint "plans_name_unique" unique ("name");`);

    this.addSql(`create table "companies" ("id" serial primary key, "name" varchar(100) not null, "email" varchar(254) null, "phone" varchar(20) null, "plan_id" int not null, "status" boolean not null default true, "due_date" date null, "trial_expiration" timestamptz null, "recurrence" varchar(20) not null default 'MENSAL', "language" varchar(5) not null default 'pt', "timezone" varchar(64) not null default 'America/Sao_Paulo', "billing_name" varchar(100) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "companies" add constraint "companies_name_unique" unique ("name");`);

    this.addSql(`create table "company_schedules" ("id" serial primary key, "company_id" int not null, "weekday" varchar(30) not null default '', "weekday_en" varchar(10) not null, "start_time" varchar(5) not null default '', "end_time" varchar(5) not null default '');`);
    this.addSql(`alter table "company_schedules" add constraint "company_schedules_company_id_weekday_en_unique" unique ("company_id", "weekday_en");`);

    this.addSql(`create table "rate_limits" ("key" varchar(300) not null, "count" int not null, "reset_at" timestamptz not null, constraint "rate_limits_pkey" primary key ("key"));`);

    this.addSql(`create table "settings" ("id" serial primary key, "company_id" int not null, "key" varchar(100) not null, "value" text not null);`);
    this.addSql(`alter table "settings" add constraint "settings_company_id_key_unique" unique ("company_id", "key");`);

    this.addSql(`create table "users" ("id" serial primary key, "name" varchar(100) not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "profile" varchar(10) not null default 'user', "super" boolean not null default false, "company_id" int not null, "all_ticket" varchar(10) not null default 'desabled', "whatsapp_id" int null, "language" varchar(5) null, "online" boolean not null default false, "last_seen_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_company_id_index" on "users" ("company_id");`);

    this.addSql(`create table "sessions" ("id" uuid not null, "user_id" int not null, "company_id" int not null, "refresh_hash" varchar(128) not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "created_at" timestamptz not null, "last_used_at" timestamptz not null, "user_agent" varchar(300) null, "ip" varchar(64) null, constraint "sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);

    this.addSql(`alter table "companies" add constraint "companies_plan_id_foreign" foreign key ("plan_id") references "plans" ("id") on update cascade on delete restrict;`);

    this.addSql(`alter table "company_schedules" add constraint "company_schedules_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "settings" add constraint "settings_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "users" add constraint "users_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sessions" add constraint "sessions_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "companies" drop constraint "companies_plan_id_foreign";`);

    this.addSql(`alter table "company_schedules" drop constraint "company_schedules_company_id_foreign";`);

    this.addSql(`alter table "settings" drop constraint "settings_company_id_foreign";`);

    this.addSql(`alter table "users" drop constraint "users_company_id_foreign";`);

    this.addSql(`alter table "sessions" drop constraint "sessions_company_id_foreign";`);

    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);

    this.addSql(`drop table if exists "helps" cascade;`);

    this.addSql(`drop table if exists "plans" cascade;`);

    this.addSql(`drop table if exists "companies" cascade;`);

    this.addSql(`drop table if exists "company_schedules" cascade;`);

    this.addSql(`drop table if exists "rate_limits" cascade;`);

    this.addSql(`drop table if exists "settings" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "sessions" cascade;`);
  }

}

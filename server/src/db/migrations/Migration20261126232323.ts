import { Migration } from '@mikro-orm/migrations';

export class Migration20261126232323 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "ticket_logs" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "action" varchar(16) not null, "actor_kind" varchar(16) not null, "actor_id" int null, "from_queue_id" int null, "to_queue_id" int null, "from_user_id" int null, "to_user_id" int null, "created_at" timestamptz not null);`);
    this.addSql(`create index "ticket_logs_ticket_id_id_index" on "ticket_logs" ("ticket_id", "id");`);

    this.addSql(`create table "step_tasks" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "step" varchar(60) not null, "facts" jsonb not null, "data" jsonb not null default '{}', "status" varchar(10) not null default 'pending', "attempts" int not null default 0, "run_after" timestamptz not null, "started_at" timestamptz null, "last_error" varchar(500) null, "created_at" timestamptz not null);`);
    this.addSql(`create index "step_tasks_due" on "step_tasks" ("run_after", "id") where "status" = 'pending';`);
    this.addSql(`create index "step_tasks_ticket" on "step_tasks" ("ticket_id", "id") where "status" in ('pending', 'running');`);

    this.addSql(`alter table "ticket_logs" add constraint "ticket_logs_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_logs" add constraint "ticket_logs_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "step_tasks" add constraint "step_tasks_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "step_tasks" add constraint "step_tasks_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ticket_logs" cascade;`);

    this.addSql(`drop table if exists "step_tasks" cascade;`);
  }

}

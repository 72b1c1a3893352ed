import { Migration } from '@mikro-orm/migrations';

export class Migration20261126233757 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "session_requests" ("id" bigserial primary key, "company_id" int not null, "whatsapp_id" int not null, "owner" varchar(100) not null, "command" text not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "session_requests_created_at_index" on "session_requests" ("created_at");`);

    this.addSql(`alter table "session_requests" add constraint "session_requests_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "session_requests" cascade;`);
  }

}

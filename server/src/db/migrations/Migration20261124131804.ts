import { Migration } from '@mikro-orm/migrations';

export class Migration20261124131804 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "password_resets" ("user_id" int not null, "company_id" int not null, "code_hash" varchar(128) not null, "expires_at" timestamptz not null, "attempts" int not null default 0, "created_at" timestamptz not null, constraint "password_resets_pkey" primary key ("user_id"));`);

    this.addSql(`alter table "password_resets" add constraint "password_resets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "password_resets" add constraint "password_resets_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "password_resets" cascade;`);
  }

}

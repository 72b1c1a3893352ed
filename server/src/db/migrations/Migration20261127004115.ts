import { Migration } from '@mikro-orm/migrations';

export class Migration20261127004115 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "contact_lists" ("id" serial primary key, "company_id" int not null, "name" varchar(200) not null, "campaign_id" int null, "check_state" varchar(20) not null default 'idle', "check_lease_until" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "contact_lists_company_id_name_index" on "contact_lists" ("company_id", "name");`);

    this.addSql(`create table "contact_list_items" ("id" serial primary key, "company_id" int not null, "contact_list_id" int not null, "name" varchar(100) not null, "number" varchar(50) not null, "email" varchar(254) not null default '', "is_whatsapp_valid" boolean not null default false, "checked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "contact_list_items_contact_list_id_name_index" on "contact_list_items" ("contact_list_id", "name");`);
    this.addSql(`create index "contact_list_items_unchecked" on "contact_list_items" ("contact_list_id", "id") where "checked_at" is null;`);
    this.addSql(`alter table "contact_list_items" add constraint "contact_list_items_contact_list_id_number_unique" unique ("contact_list_id", "number");`);

    this.addSql(`create table "contact_list_imports" ("id" serial primary key, "company_id" int not null, "contact_list_id" int not null, "status" varchar(10) not null default 'pending', "stored_name" varchar(100) not null, "file_name" varchar(300) not null, "format" varchar(4) not null, "total" int not null default 0, "processed" int not null default 0, "created" int not null default 0, "duplicates" int not null default 0, "invalid" int not null default 0, "invalid_rows" jsonb not null default '[]', "error" varchar(100) null, "lease_until" timestamptz null, "created_at" timestamptz not null, "finished_at" timestamptz null);`);
    this.addSql(`create index "contact_list_imports_contact_list_id_id_index" on "contact_list_imports" ("contact_list_id", "id");`);

    this.addSql(`alter table "contact_lists" add constraint "contact_lists_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "contact_list_items" add constraint "contact_list_items_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "contact_list_items" add constraint "contact_list_items_contact_list_id_foreign" foreign key ("contact_list_id") references "contact_lists" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "contact_list_imports" add constraint "contact_list_imports_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "contact_list_imports" add constraint "contact_list_imports_contact_list_id_foreign" foreign key ("contact_list_id") references "contact_lists" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "contact_list_items" drop constraint "contact_list_items_contact_list_id_foreign";`);

    this.addSql(`alter table "contact_list_imports" drop constraint "contact_list_imports_contact_list_id_foreign";`);

    this.addSql(`drop table if exists "contact_lists" cascade;`);

    this.addSql(`drop table if exists "contact_list_items" cascade;`);

    this.addSql(`drop table if exists "contact_list_imports" cascade;`);
  }

}

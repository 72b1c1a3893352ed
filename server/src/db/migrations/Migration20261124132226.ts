import { Migration } from '@mikro-orm/migrations';

export class Migration20261124132226 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "files" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "message" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "files" add constraint "files_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "files_options" ("id" serial primary key, "company_id" int not null, "file_id" int not null, "name" varchar(200) not null, "position" int not null default 0, "path" varchar(100) null, "media_type" varchar(100) null, "media_name" varchar(300) null, "size" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "files_options_file_id_position_index" on "files_options" ("file_id", "position");`);

    this.addSql(`alter table "files" add constraint "files_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "files_options" add constraint "files_options_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "files_options" add constraint "files_options_file_id_foreign" foreign key ("file_id") references "files" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "files_options" drop constraint "files_options_file_id_foreign";`);

    this.addSql(`drop table if exists "files" cascade;`);

    this.addSql(`drop table if exists "files_options" cascade;`);
  }

}

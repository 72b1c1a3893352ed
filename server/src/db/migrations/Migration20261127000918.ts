import { Migration } from '@mikro-orm/migrations';

export class Migration20261127000918 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_requests" ("id" serial primary key, "company_id" int not null, "whatsapp_id" int not null, "token_hash" varchar(64) not null, "idempotency_key" varchar(255) null, "fingerprint" varchar(64) not null, "state" varchar(10) not null default 'running', "attempt" int not null default 1, "status_code" smallint null, "response" jsonb null, "created_at" timestamptz not null, "claimed_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "api_requests_expires" on "api_requests" ("expires_at");`);
    this.addSql(`alter table "api_requests" add constraint "api_requests_key" unique ("token_hash", "idempotency_key");`);

    this.addSql(`alter table "api_requests" add constraint "api_requests_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_requests" add constraint "api_requests_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "whatsapps" add constraint "whatsapps_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "api_requests" cascade;`);

    this.addSql(`alter table "whatsapps" drop constraint "whatsapps_token_hash_unique";`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261127052843 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "whatsapps" add column "down_since" timestamptz null, add column "down_notified" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "whatsapps" drop column "down_since", drop column "down_notified";`);
  }

}

import { Migration } from '@mikro-orm/migrations';

/** Why a connection's session last closed, shown on the connection row (issue 11). */
export class Migration20261124104800 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "whatsapps" add column "disconnect_reason" varchar(200) not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "whatsapps" drop column "disconnect_reason";`);
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261127083405 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "outbound_messages" add column "to_name" varchar(100) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "outbound_messages" drop column "to_name";`);
  }

}

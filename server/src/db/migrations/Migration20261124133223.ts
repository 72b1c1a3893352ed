import { Migration } from '@mikro-orm/migrations';

export class Migration20261124133223 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "messages" add column "media_status" varchar(16) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "messages" drop column "media_status";`);
  }

}

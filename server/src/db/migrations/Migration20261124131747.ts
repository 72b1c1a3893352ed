import { Migration } from '@mikro-orm/migrations';

export class Migration20261124131747 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tags" add column "position" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tags" drop column "position";`);
  }

}

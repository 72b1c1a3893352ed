import { Migration } from '@mikro-orm/migrations';

export class Migration20261121140340 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "tickets_company_id_updated_at_id_index" on "tickets" ("company_id", "updated_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tickets_company_id_updated_at_id_index";`);
  }

}

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../shared/config/data-config';
import { mediaLogTable } from '../../shared/tables/media-log-table';
import { FamilyMoves } from './family-moves';
import { FamilyRekey } from './family-rekey';

/**
 * The families' move markers and re-key on the media log table, put together once. The markers live
 * in the table whose entries are re-keyed, beside the entries a family's listing reads: a re-key
 * built with its markers elsewhere would leave the listings unwarned, so no caller picks the tables.
 */

/** The move markers of families, in the media log table, through `client`. */
export function familyMoves(client: DynamoDBDocumentClient): FamilyMoves {
  return new FamilyMoves(client, tableName(mediaLogTable));
}

/** The re-key of moved users' entries in the media log table, marking its moves there too, through `client`. */
export function familyRekey(client: DynamoDBDocumentClient): FamilyRekey {
  return new FamilyRekey(client, tableName(mediaLogTable), familyMoves(client));
}

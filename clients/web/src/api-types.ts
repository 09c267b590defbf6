/**
 * Types of the Frontend API, generated from its OpenAPI document by `npm run client`. Do not edit:
 * change the route table or its schemas and run `npm run client` again.
 */
export interface paths {
    "/frontend/api/v1/media/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the media request log
         * @description Root and admin see every entry, a user its own and its sub users' entries, a sub user its own; a `user-id` outside the caller's scope matches nothing. Filters (all optional, combined with AND; values of one array with OR): `status`, `status-ffscan`, `status-mediainfo`, `status-scan-report` (pending, processing, success, warning, error, skipped), `user-id`, `url` (exact), `request` (an entry id), `send[from]` and `send[to]` (date-times, inclusive, echoed as `filter.created`; in UTC they must fall within the years 0000-9999). Arrays repeat the key or separate values by commas: `status=error&status=warning` or `status=error,warning`. Sortable field, served by every index: send (default order desc); `sort[order]` is asc or desc. Pagination: `pagination[page]` >= 1 (default 1), `pagination[limit]` 1-100 (default 10); `total` is exact. For long walks follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters. Invalid values are a 400 naming the parameter.
         */
        get: operations["listMediaLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/media/log/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the live media log
         * @description Extension of the interface: a WebSocket URL that pushes each change of the entries the caller may see, without polling. The URL carries a one-time ticket (not the token: URLs land in access logs), valid for 60 seconds and bound to the caller; a second use, an expired ticket or a page origin outside the CORS origins is refused with 401 or 403. The connection closes when the token expires, when the caller is suspended, demoted or deleted (within 60 s), after 10 idle minutes and after 2 hours: connect again with a new ticket and refetch. Send `{"action":"subscribe","id":"<your id>","filter":{…}}` with the filter of GET /media/log (statuses, `user-id`, `url`, `request`, `send`), at most 5 per connection and 10 connections per user; it answers `{"type":"subscribed","id"}`, and changes written 1 s after that are pushed (fetch the page once that second has passed). Each new or changed entry whose old or new state matches arrives as `{"type":"entry","subscription","entry","matches"}` (`matches` false: it left the filter), the latest state at most once a second per entry, at most 20 a second per subscription, beyond which `{"type":"overflow","subscription","dropped"}` says to refetch the page. `{"action":"unsubscribe","id"}` ends a subscription. A message refused is answered `{"type":"error","id","status","code","detail"}` with the codes of the problem answers. With an `Idempotency-Key`, a retry gets the ticket of its first request.
         */
        post: operations["createLiveTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI 3.1 document of this API
         * @description Extension of the interface, public: this document, generated from the same zod schemas that validate requests. The interactive documentation of the local gateway (`npm start`) is at /frontend/api/v1/docs.
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users the caller manages
         * @description Root sees every user, admin every user but root users, a user itself and its sub users, a sub user itself. Query objects use the deepObject style: `pagination[page]=2&pagination[limit]=50&sort[field]=email&sort[order]=desc`. Arrays repeat the key or separate values by commas: `role=user&role=sub` or `role=user,sub`. Sortable fields, each served by an index: id (default, asc), created (follows id), email, username. `email` or `username`, one of them, filters by a case-insensitive prefix and lists sorted by that field. `total` is exact. For deep pages follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/{user-id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a user the caller manages
         * @description Extension of the interface. Root manages everyone, admin everyone but root users, a user itself and its sub users, a sub user itself. A user outside the caller's scope answers 404, exactly like one that does not exist.
         */
        get: operations["getUser"];
        /**
         * Update the profile of a user the caller manages (a sub user, for a user)
         * @description Only `first-name` and `last-name` may change; each is at most 100 characters without control characters, trimmed of surrounding white space, and may be empty. Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since. A user outside the caller's scope answers 404.
         */
        put: operations["updateUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/{user-id}/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an avatar for a user the caller manages
         * @description Root manages everyone, admin everyone but root users, a user itself and its sub users, a sub user itself. A user outside the caller's scope answers 404, exactly like one that does not exist. Nothing is fetched for such a user.
         *
         *     The image at `avatar` (an http or https address of at most 2048 characters) is fetched, cropped, stored and enabled: the new avatar becomes the only enabled one of the user, and its `url` answers a plain GET with the WebP image, which never changes (cacheable for a year).
         *     `avatar` may instead be the `source` of a file the browser posted with an upload form (`POST …/avatar/uploads`): the file is read from storage, not fetched, and deleted once the avatar is stored or the file refused. A source that names no usable file of this user (never posted, already used, expired, another user's) is a 422 `upload_not_found`.
         *     The fetch reaches public internet addresses on ports 80 and 443 only (an address that leads elsewhere, redirects included, is a 400 on `avatar`), follows at most 3 redirects and takes JPEG, PNG, WebP or GIF images of at most 10 MB (413 beyond) and 40 megapixels (422 beyond), by default.
         *     `crop.left`, `crop.top` (0-100000) and `crop.size` (1-100000) are required; `crop.rotate` (a multiple of 90 from -360 to 360) and `crop.flip` are optional.
         *
         *     The crop settings apply in this order:
         *     1. The image is turned upright according to its EXIF orientation.
         *     2. It is rotated clockwise by `rotate` degrees, a multiple of 90 (default 0): negative values turn counter-clockwise, 360 is the same as 0; any other value is a 400.
         *     3. It is mirrored by `flip` (default none): `horizontal` swaps left and right, `vertical` swaps top and bottom.
         *     4. The square of side `size` whose top-left corner is at (`left`, `top`) is cut out of the image that steps 1–3 produced; a square that does not lie inside that image is a 422 naming the field at fault.
         *
         *     The avatar is that square as a WebP image of min(`size`, 512) × min(`size`, 512) pixels, without metadata (no EXIF). Transparency is kept; of an animated image, the first frame is used.
         *
         *     Other errors: 422 for a file that is not a usable image, and for an address the caller must fix: `source_unresolvable` when its host name does not exist or has no address, `source_refused` when its host refuses the connection; 502 or 504 when the image source answers with an error, breaks off, or does not answer in time; 409 when other changes of the same user's avatars kept getting in the way (retry).
         */
        post: operations["uploadUserAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/{user-id}/avatar/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a form to upload a file for the avatar of a user the caller manages
         * @description Root manages everyone, admin everyone but root users, a user itself and its sub users, a sub user itself. A user outside the caller's scope answers 404, exactly like one that does not exist. The source is bound to that user: only its avatar upload accepts it.
         *
         *     Answers a presigned S3 POST form for one image file: the browser posts the file straight to storage, so it never passes through the API. Two steps:
         *
         *     1. Post a `multipart/form-data` form to `url` with every entry of `fields`, then the file as the last field, named `file` (`FormData`: append the fields, then `append('file', file)`). Storage answers 204. The form is accepted until `expires` (5 minutes), for one file of the declared `content-type`, of 1 byte up to the avatar byte cap (10 MB by default); storage refuses anything else with a 403 or 400 of its own.
         *     2. Call the avatar upload of the same user with `avatar` = `source` and a `crop`, as for an image address.
         *
         *     The file is the user's for a day: used once, then deleted; unused, removed by a lifecycle rule. The service checks the file again when it reads it (size, image type, pixels), whatever storage enforced.
         *
         *     What a user's files can cost is bounded: a user is given at most 20 forms a day (UTC), whoever asks for them (the user, or a manager for that user), and each form stores at most one file. Beyond that the answer is a 429 `upload_forms_exhausted` whose `Retry-After` is the number of seconds until midnight UTC.
         */
        post: operations["createUserAvatarUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the caller's own profile
         * @description Extension of the interface: the full User of the caller, with an ETag for conditional updates.
         */
        get: operations["getCurrentUser"];
        /**
         * Update the caller's own profile
         * @description Only `first-name` and `last-name` may change; each is at most 100 characters without control characters, trimmed of surrounding white space, and may be empty. Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since.
         */
        put: operations["updateCurrentUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/current/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an avatar for the caller
         * @description The image at `avatar` (an http or https address of at most 2048 characters) is fetched, cropped, stored and enabled: the new avatar becomes the only enabled one of the user, and its `url` answers a plain GET with the WebP image, which never changes (cacheable for a year).
         *     `avatar` may instead be the `source` of a file the browser posted with an upload form (`POST …/avatar/uploads`): the file is read from storage, not fetched, and deleted once the avatar is stored or the file refused. A source that names no usable file of this user (never posted, already used, expired, another user's) is a 422 `upload_not_found`.
         *     The fetch reaches public internet addresses on ports 80 and 443 only (an address that leads elsewhere, redirects included, is a 400 on `avatar`), follows at most 3 redirects and takes JPEG, PNG, WebP or GIF images of at most 10 MB (413 beyond) and 40 megapixels (422 beyond), by default.
         *     `crop.left`, `crop.top` (0-100000) and `crop.size` (1-100000) are required; `crop.rotate` (a multiple of 90 from -360 to 360) and `crop.flip` are optional.
         *
         *     The crop settings apply in this order:
         *     1. The image is turned upright according to its EXIF orientation.
         *     2. It is rotated clockwise by `rotate` degrees, a multiple of 90 (default 0): negative values turn counter-clockwise, 360 is the same as 0; any other value is a 400.
         *     3. It is mirrored by `flip` (default none): `horizontal` swaps left and right, `vertical` swaps top and bottom.
         *     4. The square of side `size` whose top-left corner is at (`left`, `top`) is cut out of the image that steps 1–3 produced; a square that does not lie inside that image is a 422 naming the field at fault.
         *
         *     The avatar is that square as a WebP image of min(`size`, 512) × min(`size`, 512) pixels, without metadata (no EXIF). Transparency is kept; of an animated image, the first frame is used.
         *
         *     Other errors: 422 for a file that is not a usable image, and for an address the caller must fix: `source_unresolvable` when its host name does not exist or has no address, `source_refused` when its host refuses the connection; 502 or 504 when the image source answers with an error, breaks off, or does not answer in time; 409 when other changes of the same user's avatars kept getting in the way (retry).
         */
        post: operations["uploadCurrentAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/current/avatar/{avatar-id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete one of the caller's avatars
         * @description `avatar-id` is an id from the caller's User (`avatars.items[].id`). The avatar's record and image are deleted; if it was the enabled avatar, the newest remaining one is enabled (none when it was the last). A value that is not a UUID is a 400; an id that names no avatar of the caller (another user's included) is a 404.
         */
        delete: operations["deleteCurrentAvatar"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/frontend/api/v1/user/current/avatar/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a form to upload a file for the caller's avatar
         * @description Answers a presigned S3 POST form for one image file: the browser posts the file straight to storage, so it never passes through the API. Two steps:
         *
         *     1. Post a `multipart/form-data` form to `url` with every entry of `fields`, then the file as the last field, named `file` (`FormData`: append the fields, then `append('file', file)`). Storage answers 204. The form is accepted until `expires` (5 minutes), for one file of the declared `content-type`, of 1 byte up to the avatar byte cap (10 MB by default); storage refuses anything else with a 403 or 400 of its own.
         *     2. Call the avatar upload of the same user with `avatar` = `source` and a `crop`, as for an image address.
         *
         *     The file is the user's for a day: used once, then deleted; unused, removed by a lifecycle rule. The service checks the file again when it reads it (size, image type, pixels), whatever storage enforced.
         *
         *     What a user's files can cost is bounded: a user is given at most 20 forms a day (UTC), whoever asks for them (the user, or a manager for that user), and each form stores at most one file. Beyond that the answer is a 429 `upload_forms_exhausted` whose `Retry-After` is the number of seconds until midnight UTC.
         */
        post: operations["createCurrentAvatarUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Avatar: {
            /** Format: date-time */
            created: string;
            enabled: boolean;
            /** Format: uuid */
            id: string;
            provider: string;
            /** Format: uri */
            url: string;
        };
        FeedMessage: components["schemas"]["MediaRequestMessage"] | components["schemas"]["StatusMessage"];
        LiveEntryMessage: {
            entry: {
                /** Format: uuid */
                id: string;
                /** Format: date-time */
                send: string;
                /** @enum {string} */
                status: "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /** @enum {string} */
                "status-ffscan": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /** @enum {string} */
                "status-mediainfo": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /** @enum {string} */
                "status-scan-report": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                url: string;
                "user-id": number;
            };
            matches: boolean;
            subscription: string;
            /** @constant */
            type: "entry";
        };
        LiveErrorMessage: {
            code: string;
            detail: string;
            errors?: {
                name: string;
                reason: string;
            }[];
            id?: string;
            status: number;
            /** @constant */
            type: "error";
        };
        LiveMessage: components["schemas"]["LiveSubscribedMessage"] | components["schemas"]["LiveUnsubscribedMessage"] | components["schemas"]["LiveEntryMessage"] | components["schemas"]["LiveOverflowMessage"] | components["schemas"]["LiveErrorMessage"];
        LiveOverflowMessage: {
            dropped: number;
            subscription: string;
            /** @constant */
            type: "overflow";
        };
        LiveSubscribedMessage: {
            id: string;
            /** @constant */
            type: "subscribed";
        };
        LiveUnsubscribedMessage: {
            id: string;
            /** @constant */
            type: "unsubscribed";
        };
        MediaRequestMessage: {
            entry: {
                /** Format: uuid */
                id: string;
                /** Format: date-time */
                send: string;
                /**
                 * @default pending
                 * @enum {string}
                 */
                status: "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /**
                 * @default pending
                 * @enum {string}
                 */
                "status-ffscan": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /**
                 * @default pending
                 * @enum {string}
                 */
                "status-mediainfo": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /**
                 * @default pending
                 * @enum {string}
                 */
                "status-scan-report": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                /** Format: uri */
                url: string;
                "user-id": number;
            };
            /** @constant */
            type: "media-request";
        };
        Pagination: {
            count: number;
            limit: number;
            next: string | null;
            page: number;
            total: number;
            "total-exact": boolean;
        };
        Permissions: {
            "manage-admins": boolean;
            "manage-sub-users": boolean;
            "manage-users": boolean;
            /** @enum {string} */
            "media-log-scope": "all" | "own-and-sub-users" | "own";
            "upload-avatar": boolean;
        };
        Plan: {
            /** Format: date-time */
            expires: string;
            id: number;
            name: string;
        };
        Problem: {
            code: string;
            detail: string;
            errors?: {
                name: string;
                reason: string;
            }[];
            instance?: string;
            status: number;
            title: string;
            type: string;
        };
        Sort: {
            field: string;
            /** @enum {string} */
            order: "asc" | "desc";
        };
        StatusMessage: {
            /** Format: date-time */
            at: string;
            /** @enum {string} */
            field: "status" | "status-ffscan" | "status-mediainfo" | "status-scan-report";
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "status";
            /** @enum {string} */
            value: "pending" | "processing" | "success" | "warning" | "error" | "skipped";
        };
        User: {
            "additional-emails": string[] | null;
            avatars: {
                current: string | null;
                items: components["schemas"]["Avatar"][];
            } | null;
            /** Format: date-time */
            created: string;
            email: string;
            "first-name": string;
            id: number;
            "last-name": string;
            parent: components["schemas"]["UserSummary"] | null;
            permissions: components["schemas"]["Permissions"];
            plan: components["schemas"]["Plan"] | null;
            /** @enum {string} */
            role: "root" | "admin" | "user" | "sub";
            /** @enum {string} */
            status: "anonymous" | "pending" | "active" | "suspended";
            /** Format: date-time */
            updated: string;
            username: string;
        };
        UserSummary: {
            email: string;
            id: number;
            /** @enum {string} */
            role: "root" | "admin" | "user" | "sub";
            /** @enum {string} */
            status: "anonymous" | "pending" | "active" | "suspended";
            username: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listMediaLog: {
        parameters: {
            query?: {
                /** @description An object in the deepObject style: `pagination[page]`, `pagination[limit]`, `pagination[cursor]`. */
                pagination?: {
                    cursor?: string;
                    limit?: number;
                    page?: number;
                };
                request?: string;
                /** @description An object in the deepObject style: `send[from]`, `send[to]`. Send times of the entries listed, both inclusive. Where the deployment keeps the log for a number of days (its retention), every range starts no earlier than that many days ago: older entries are neither listed nor counted, whether or not they are deleted yet. */
                send?: {
                    /** Format: date-time */
                    from?: string;
                    /** Format: date-time */
                    to?: string;
                };
                /** @description An object in the deepObject style: `sort[field]`, `sort[order]`. */
                sort?: {
                    /** @enum {string} */
                    field?: "send";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                };
                /** @description Repeat the key (`status=a&status=b`), separate the values by commas (`status=a,b`), or write them with brackets (`status[]=a&status[]=b`) or indices (`status[0]=a&status[1]=b`): all mean the same. */
                status?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                /** @description Repeat the key (`status-ffscan=a&status-ffscan=b`), separate the values by commas (`status-ffscan=a,b`), or write them with brackets (`status-ffscan[]=a&status-ffscan[]=b`) or indices (`status-ffscan[0]=a&status-ffscan[1]=b`): all mean the same. */
                "status-ffscan"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                /** @description Repeat the key (`status-mediainfo=a&status-mediainfo=b`), separate the values by commas (`status-mediainfo=a,b`), or write them with brackets (`status-mediainfo[]=a&status-mediainfo[]=b`) or indices (`status-mediainfo[0]=a&status-mediainfo[1]=b`): all mean the same. */
                "status-mediainfo"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                /** @description Repeat the key (`status-scan-report=a&status-scan-report=b`), separate the values by commas (`status-scan-report=a,b`), or write them with brackets (`status-scan-report[]=a&status-scan-report[]=b`) or indices (`status-scan-report[0]=a&status-scan-report[1]=b`): all mean the same. */
                "status-scan-report"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                url?: string;
                /** @description Repeat the key (`user-id=a&user-id=b`), separate the values by commas (`user-id=a,b`), or write them with brackets (`user-id[]=a&user-id[]=b`) or indices (`user-id[0]=a&user-id[1]=b`): all mean the same. */
                "user-id"?: number[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of media log entries. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        filter: {
                            created?: {
                                /** Format: date-time */
                                from?: string;
                                /** Format: date-time */
                                to?: string;
                            };
                            request?: string;
                            status?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                            "status-ffscan"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                            "status-mediainfo"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                            "status-scan-report"?: ("pending" | "processing" | "success" | "warning" | "error" | "skipped")[];
                            url?: string;
                            "user-id"?: number[];
                        };
                        log: {
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            send: string;
                            /** @enum {string} */
                            status: "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                            /** @enum {string} */
                            "status-ffscan": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                            /** @enum {string} */
                            "status-mediainfo": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                            /** @enum {string} */
                            "status-scan-report": "pending" | "processing" | "success" | "warning" | "error" | "skipped";
                            url: string;
                            "user-id": number;
                        }[];
                        pagination: components["schemas"]["Pagination"];
                        sort: components["schemas"]["Sort"];
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createLiveTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A WebSocket URL with a one-time ticket, and when the ticket expires. */
            201: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expires: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        components: {
                            [key: string]: unknown;
                        };
                        info: {
                            title: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                        openapi: string;
                        paths: {
                            [key: string]: {
                                [key: string]: unknown;
                            };
                        };
                        servers: ({
                            url: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description An object in the deepObject style: `pagination[page]`, `pagination[limit]`, `pagination[cursor]`. */
                pagination?: {
                    cursor?: string;
                    limit?: number;
                    page?: number;
                };
                /** @description At most one of `email`, `username`, each sent as a parameter of its own (`email=…`); together they are a 400. */
                prefix?: {
                    /** @description A case-insensitive prefix of the email; the list is then sorted by email. */
                    email?: string;
                    /** @description A case-insensitive prefix of the username; the list is then sorted by username. */
                    username?: string;
                };
                /** @description Repeat the key (`role=a&role=b`), separate the values by commas (`role=a,b`), or write them with brackets (`role[]=a&role[]=b`) or indices (`role[0]=a&role[1]=b`): all mean the same. */
                role?: ("root" | "admin" | "user" | "sub")[];
                /** @description An object in the deepObject style: `sort[field]`, `sort[order]`. */
                sort?: {
                    /** @enum {string} */
                    field?: "id" | "created" | "email" | "username";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                };
                /** @description Repeat the key (`status=a&status=b`), separate the values by commas (`status=a,b`), or write them with brackets (`status[]=a&status[]=b`) or indices (`status[0]=a&status[1]=b`): all mean the same. */
                status?: ("anonymous" | "pending" | "active" | "suspended")[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of user summaries. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        filter: {
                            email?: string;
                            role?: ("root" | "admin" | "user" | "sub")[];
                            status?: ("anonymous" | "pending" | "active" | "suspended")[];
                            username?: string;
                        };
                        pagination: components["schemas"]["Pagination"];
                        sort: components["schemas"]["Sort"];
                        users: components["schemas"]["UserSummary"][];
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                "user-id": number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The User. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    /** @description Version of the resource: send it as If-Match to update only this version. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
                /** @description `*`, or the ETag of a previous read (a comma-separated list of entity tags is accepted, RFC 9110): the request is refused with 412 unless one of them is the current ETag (compared strongly: a weak `W/"…"` tag never matches). A value that is not this syntax is a 400, an empty one included: leave the header out to update unconditionally. */
                "If-Match"?: string;
            };
            path: {
                "user-id": number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    "first-name"?: string;
                    "last-name"?: string;
                };
            };
        };
        responses: {
            /** @description The updated User. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    /** @description Version of the resource: send it as If-Match to update only this version. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The `If-Match` version is no longer current: read the resource again. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    uploadUserAvatar: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path: {
                "user-id": number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    avatar: string;
                    crop: {
                        /** @enum {string} */
                        flip?: "horizontal" | "vertical";
                        left: number;
                        rotate?: number;
                        size: number;
                        top: number;
                    };
                };
            };
        };
        responses: {
            /** @description The new avatar, enabled. */
            201: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        avatar: components["schemas"]["Avatar"];
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createUserAvatarUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path: {
                "user-id": number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    "content-type": "image/jpeg" | "image/png" | "image/webp" | "image/gif";
                };
            };
        };
        responses: {
            /** @description A form for one file, and the source to pass as `avatar` once it is posted. */
            201: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expires: string;
                        fields: {
                            [key: string]: string;
                        };
                        source: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The User. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    /** @description Version of the resource: send it as If-Match to update only this version. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCurrentUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
                /** @description `*`, or the ETag of a previous read (a comma-separated list of entity tags is accepted, RFC 9110): the request is refused with 412 unless one of them is the current ETag (compared strongly: a weak `W/"…"` tag never matches). A value that is not this syntax is a 400, an empty one included: leave the header out to update unconditionally. */
                "If-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    "first-name"?: string;
                    "last-name"?: string;
                };
            };
        };
        responses: {
            /** @description The updated User. */
            200: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    /** @description Version of the resource: send it as If-Match to update only this version. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The `If-Match` version is no longer current: read the resource again. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    uploadCurrentAvatar: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    avatar: string;
                    crop: {
                        /** @enum {string} */
                        flip?: "horizontal" | "vertical";
                        left: number;
                        rotate?: number;
                        size: number;
                        top: number;
                    };
                };
            };
        };
        responses: {
            /** @description The new avatar, enabled. */
            201: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        avatar: components["schemas"]["Avatar"];
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCurrentAvatar: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path: {
                "avatar-id": string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCurrentAvatarUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Field String, a quoted string of 1 to 255 printable ASCII characters, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`; send a new one with each new request, and the same one with its retries. The same key with the same request (operation, path and body) replays the first successful answer (status, body, ETag) without doing the work again; with another request it is a 422 (`idempotency_key_reused`); while the first request still runs it is a 409 (`idempotency_key_in_use`, with `Retry-After`). Keys are the caller's own (another user's equal key is another key) and kept 24 hours. A failed request keeps nothing: its retry runs again. A value that is not such a string is a 400. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    "content-type": "image/jpeg" | "image/png" | "image/webp" | "image/gif";
                };
            };
        };
        responses: {
            /** @description A form for one file, and the source to pass as `avatar` once it is posted. */
            201: {
                headers: {
                    /** @description `no-store`: the answer carries personal data that no cache may keep. */
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expires: string;
                        fields: {
                            [key: string]: string;
                        };
                        source: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No bearer token, or one that is invalid or expired: refresh the token and retry. */
            401: {
                headers: {
                    /**
                     * @description RFC 6750: the token is missing, invalid or expired.
                     * @example Bearer error="invalid_token"
                     */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The account may not use the API (a suspended user). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found, or outside the caller's scope: the two are indistinguishable on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request body, or a fetched image, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request URL is longer than the gateway accepts (10240 characters): shorten the query. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request body that is not `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed input that cannot be used; `code` names the reason. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: retry shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are larger than the gateway accepts (10240 bytes in all). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description An upstream the request depends on failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A dependency is unavailable: retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request or an upstream took too long. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}

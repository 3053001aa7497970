/** The answers' shared parts: errors, metadata as answered, cursor lists. For the OpenAPI document and the SDK's types only, out of every Lambda bundle. */
import * as z from 'zod';

export const ErrorSchema = z
  .object({
    statusCode: z.int(),
    error: z.string(),
    message: z.string(),
    code: z.string().meta({ description: 'Machine-readable error code; branch on this, not on the message.' }),
    field: z.string().optional().meta({ description: 'The offending parameter, when there is one.' }),
    errors: z
      .array(z.object({ param: z.string().optional(), code: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Invalid input (400 parameter_*): every problem of the path, query and body; the first is also message, field and code.' }),
    requestId: z.string().meta({ description: 'The Request-Id of the answer: quote it to support.', example: 'req_4a7c2f0e-58f1-4b43-9d0c-2d6f0c8e1b3a' }),
    docUrl: z.string().meta({ description: "Absolute URL of the code's entry in the docs' error catalogue (<DOCS_BASE_URL>#error-<code>; in the sandbox http://localhost:4010/docs/errors#error-<code>)." }),
  })
  .meta({
    id: 'Error',
    example: {
      statusCode: 400,
      error: 'Bad Request',
      message: 'Invalid amountMinor: amounts are integers in minor units (cents): 10.50 is 1050.',
      code: 'parameter_invalid',
      field: 'amountMinor',
      errors: [
        { param: 'amountMinor', code: 'parameter_invalid', message: 'Invalid amountMinor: amounts are integers in minor units (cents): 10.50 is 1050.' },
        { param: 'currency', code: 'parameter_missing', message: 'Missing required parameter: currency.' },
      ],
      requestId: 'req_4a7c2f0e-58f1-4b43-9d0c-2d6f0c8e1b3a',
      docUrl: 'http://localhost:4010/docs/errors#error-parameter_invalid',
    },
  });

/**
 * The envelope of the lists the spec leaves open (docs/api.md, "Lists"): a page of `data`, whether more follow, and the
 * cursor to send as startingAfter for the next page.
 */
export const cursorListSchema = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      hasMore: z.boolean().meta({ description: 'More items follow this page.' }),
      nextCursor: z.string().nullable().meta({ description: 'Send it as startingAfter for the next page; null on the last page (the id of the last item otherwise).' }),
    })
    .meta({ id });

/** Metadata as answered: always an object ({} when none was sent). */
export const MetadataSchema = z
  .record(z.string(), z.string())
  .meta({ id: 'Metadata', description: 'The metadata sent when the object was created; {} when none.', example: { orderId: 'order_42' } });

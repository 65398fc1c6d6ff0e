import type { OpenAPIObject } from '@nestjs/swagger';

const DOCUMENTED_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface PathMethods {
  pattern: RegExp;
  methods: string[];
}

/**
 * The methods each documented path answers, so a request with another method gets 405 and
 * an `Allow` header instead of the unknown-route 404. Built once from the OpenAPI document.
 */
export class AllowedMethods {
  private readonly paths: PathMethods[];

  constructor(document: OpenAPIObject) {
    this.paths = Object.entries(document.paths).map(([path, item]) => {
      const methods = DOCUMENTED_METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
      if (methods.includes('GET')) methods.push('HEAD');
      return { pattern: pathPattern(path), methods };
    });
  }

  /** The methods of the documented path `path` matches, or undefined when none does. */
  of(path: string): string[] | undefined {
    const matching = this.paths.filter((p) => p.pattern.test(path));
    if (matching.length === 0) return undefined;
    return [...new Set(matching.flatMap((p) => p.methods))];
  }
}

function pathPattern(openApiPath: string): RegExp {
  const segments = openApiPath.split('/').map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}

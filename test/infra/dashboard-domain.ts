import { expect } from 'vitest';

/** Stands for the dashboard distribution's domain, which CloudFormation knows only at deploy time. */
export const DASHBOARD_DOMAIN = 'dashboard.cloudfront.test';

/**
 * A template value as a string: itself, or an Fn::Join whose only token is the dashboard site's distribution domain
 * (checked), written as DASHBOARD_DOMAIN. How the default docUrl reaches functions and gateway responses.
 */
export function withDashboardDomain(value: unknown): string {
  if (typeof value === 'string') return value;
  const [separator, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const [resource, attribute] = (part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      expect(resource).toMatch(/^DashboardSiteDistribution/);
      expect(attribute).toBe('DomainName');
      return DASHBOARD_DOMAIN;
    })
    .join(separator);
}

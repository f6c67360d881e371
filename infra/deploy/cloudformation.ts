/** CloudFormation's intrinsic functions in their long form, as serverless writes the short tags (!GetAtt, !Join, !Ref) into the template. */
export type Intrinsic =
  | string
  | { readonly 'Fn::GetAtt': readonly [string, string] }
  | { readonly 'Fn::Join': readonly [string, readonly Intrinsic[]] }
  | { readonly 'Fn::Sub': string }
  | { readonly Ref: string };

/** `!GetAtt <resource>.Arn` (or another attribute). */
export const getAtt = (resource: string, attribute = 'Arn'): Intrinsic => ({ 'Fn::GetAtt': [resource, attribute] });

/** `!Sub '<text with ${AWS::Region} and the like>'`. */
export const sub = (text: string): Intrinsic => ({ 'Fn::Sub': text });

/// The typed path (issue 7): a domain record goes from its bytes (a JSON Lines line, a CSV row)
/// straight to its model (`FieldCodable`), through the typed migration stages, and straight to
/// the output's bytes, with no `Value` tree in between. It handles the plain case only: any
/// record it cannot take whole goes the general path, which reports every problem.
public enum TypedPath {}

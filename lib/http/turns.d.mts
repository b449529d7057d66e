/** See turns.mjs. */
export function inTurns<Req, Res>(handle: (req: Req, res: Res) => void, budgetMs: number): (req: Req, res: Res) => void;

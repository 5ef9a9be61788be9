// Tables of the translate module.
export {};

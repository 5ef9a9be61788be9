// Tables of the guards module.
export {};

// Tables of the runner module.
export {};
